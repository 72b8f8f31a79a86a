//! Which files to read: named paths, directories walked with the `ignore` crate (honouring
//! `.gitignore`, skipping hidden files), and standard input.

use std::io;
use std::path::{Path, PathBuf};

use crate::source::Format;

/// One thing to lint.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file, named on the command line (`explicit`) or found while walking a directory.
    File {
        /// The path as given or as found under a given directory.
        path: PathBuf,
        /// Named on the command line: read whatever its extension.
        explicit: bool,
    },
}

/// A file that could not be read; the run reports it and goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The path as shown to the user.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

/// A path named on the command line that cannot be read: the run stops with exit code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FatalError(pub String);

/// The files to lint, sorted, and the problems met while finding them.
#[derive(Debug, Default)]
pub struct Walk {
    /// Inputs in a deterministic order (standard input first, then by path).
    pub inputs: Vec<Input>,
    /// Unreadable directories and files met while walking.
    pub errors: Vec<FileError>,
}

/// How an I/O error reads in a message.
pub fn describe_io_error(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    }
}

/// Expands `paths` (empty means the current directory) into the inputs to lint.
pub fn collect(paths: &[PathBuf]) -> Result<Walk, FatalError> {
    let default = [PathBuf::from(".")];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    let mut walk = Walk::default();
    for path in paths {
        if path.as_os_str() == "-" {
            walk.inputs.push(Input::Stdin);
            continue;
        }
        let meta = std::fs::metadata(path).map_err(|e| {
            FatalError(format!(
                "cannot read `{}`: {}",
                path.display(),
                describe_io_error(&e)
            ))
        })?;
        if meta.is_dir() {
            walk_dir(path, &mut walk);
        } else {
            std::fs::File::open(path).map_err(|e| {
                FatalError(format!(
                    "cannot read `{}`: {}",
                    path.display(),
                    describe_io_error(&e)
                ))
            })?;
            walk.inputs.push(Input::File {
                path: path.clone(),
                explicit: true,
            });
        }
    }
    walk.inputs.sort();
    walk.inputs.dedup_by(|a, b| match (a, b) {
        (Input::File { path: p, .. }, Input::File { path: q, .. }) => p == q,
        (a, b) => a == b,
    });
    Ok(walk)
}

fn walk_dir(dir: &Path, walk: &mut Walk) {
    let walker = ignore::WalkBuilder::new(dir)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_path(|a, b| a.cmp(b))
        .build();
    for entry in walker {
        match entry {
            Ok(entry) => {
                let is_file = entry.file_type().is_some_and(|t| t.is_file());
                if is_file && Format::from_path(entry.path()).is_some() {
                    walk.inputs.push(Input::File {
                        path: entry.into_path(),
                        explicit: false,
                    });
                }
            }
            Err(err) => walk.errors.push(FileError {
                path: error_path(&err).unwrap_or_else(|| dir.display().to_string()),
                message: err.to_string(),
            }),
        }
    }
}

fn error_path(err: &ignore::Error) -> Option<String> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path.display().to_string()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        _ => None,
    }
}
