//! Which files to read: named paths, directories walked with the `ignore` crate (honouring
//! `.gitignore`, entering hidden directories unless told not to, never version-control ones),
//! and standard input.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::config::{ConfigError, FileSettings, Resolved, Resolver};
use crate::fsio::describe_io_error;
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

/// Why the run stops with exit code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FatalError {
    /// A path named on the command line that cannot be read.
    Path(String),
    /// A configuration file that cannot be used.
    Config(Box<ConfigError>),
}

impl From<ConfigError> for FatalError {
    fn from(e: ConfigError) -> FatalError {
        FatalError::Config(Box::new(e))
    }
}

/// An input with the settings that apply to it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// What to read.
    pub input: Input,
    /// Its configuration.
    pub settings: Arc<FileSettings>,
}

/// The files to lint, sorted, and the problems met while finding them.
#[derive(Debug, Default)]
pub struct Walk {
    /// Inputs in a deterministic order (standard input first, then by path).
    pub inputs: Vec<Entry>,
    /// Unreadable directories and files met while walking, and named paths that cannot be
    /// read.
    pub errors: Vec<FileError>,
    /// How many of `errors` fail the run (exit code 2, once everything else is reported): all
    /// of them, named paths and what could not be read while walking.
    pub fatal_errors: usize,
}

/// How paths are chosen.
#[derive(Debug, Clone, Copy, Default)]
pub struct WalkOptions<'a> {
    /// The name standard input's settings are looked up by (`--stdin-filename`).
    pub stdin_filename: Option<&'a str>,
    /// Apply `exclude` to paths named on the command line too.
    pub force_exclude: bool,
    /// Walk hidden (dot) files and directories: what a pre-commit hook, which names them, and a
    /// CI run over the directory then agree on.
    pub hidden: bool,
}

/// Directories of version-control systems: never walked (what ruff excludes by default).
const VCS_DIRECTORIES: [&str; 7] = [".git", ".hg", ".svn", ".bzr", ".jj", ".sl", "_darcs"];

/// Expands `paths` (empty means the current directory) into the inputs to lint, each with its
/// settings; excluded paths are left out (named ones only with `force_exclude`).
pub fn collect(
    paths: &[PathBuf],
    resolver: &Arc<Resolver>,
    options: WalkOptions<'_>,
) -> Result<Walk, FatalError> {
    let default = [PathBuf::from(".")];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    let mut walk = Walk::default();
    for path in paths {
        if path.as_os_str() == "-" {
            let name = Path::new(options.stdin_filename.unwrap_or("-"));
            let resolved = resolver.resolve(name, false)?;
            if !(options.force_exclude && resolved.excluded) {
                walk.inputs.push(Entry {
                    input: Input::Stdin,
                    settings: resolved.settings,
                });
            }
            continue;
        }
        // A named path that cannot be read is reported with the others' findings, and fails
        // the run then.
        let mut cannot_read = |message: String| {
            walk.errors.push(FileError {
                path: path.display().to_string(),
                message,
            });
            walk.fatal_errors += 1;
        };
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) => {
                cannot_read(format!("cannot read it: {}", describe_io_error(&e)));
                continue;
            }
        };
        if meta.is_dir() {
            if options.force_exclude && resolver.resolve(path, true)?.excluded {
                continue;
            }
            walk_dir(path, resolver, options.hidden, &mut walk)?;
        } else if !meta.is_file() {
            // A FIFO would block, a device never end: only regular files and `-` are read.
            cannot_read(
                "cannot read it: not a regular file (a FIFO, socket or device); pipe it to `irilint check -` instead"
                    .to_string(),
            );
        } else {
            if let Err(e) = std::fs::File::open(path) {
                cannot_read(format!("cannot read it: {}", describe_io_error(&e)));
                continue;
            }
            let resolved = resolver.resolve(path, false)?;
            if options.force_exclude && resolved.excluded {
                continue;
            }
            walk.inputs.push(Entry {
                input: Input::File {
                    path: path.clone(),
                    explicit: true,
                },
                settings: resolved.settings,
            });
        }
    }
    walk.inputs.sort_by(|a, b| a.input.cmp(&b.input));
    walk.inputs.dedup_by(|a, b| match (&a.input, &b.input) {
        (Input::File { path: p, .. }, Input::File { path: q, .. }) => p == q,
        (a, b) => a == b,
    });
    Ok(walk)
}

fn walk_dir(
    dir: &Path,
    resolver: &Arc<Resolver>,
    hidden: bool,
    walk: &mut Walk,
) -> Result<(), FatalError> {
    // A directory below the one named is entered unless its parent's configuration excludes it.
    let failed: Arc<Mutex<Option<ConfigError>>> = Arc::default();
    let walker = {
        let resolver = resolver.clone();
        let failed = failed.clone();
        ignore::WalkBuilder::new(dir)
            .require_git(false)
            .follow_links(false)
            .hidden(!hidden)
            // Siblings' paths are their parent's path, a `/` and their names: as bytes they
            // compare as their names do, which is how paths compare component by component,
            // without parsing the components for every pair.
            .sort_by_file_path(|a, b| a.as_os_str().cmp(b.as_os_str()))
            .filter_entry(move |entry| {
                if entry.depth() == 0 || !entry.file_type().is_some_and(|t| t.is_dir()) {
                    return true;
                }
                if VCS_DIRECTORIES
                    .iter()
                    .any(|v| entry.file_name() == std::ffi::OsStr::new(v))
                {
                    return false;
                }
                match resolver.resolve_walked(entry.path(), true) {
                    Ok(r) => !r.excluded,
                    Err(e) => {
                        failed.lock().expect("lock").get_or_insert(e);
                        false
                    }
                }
            })
            .build()
    };
    // The directories on the way to the entry, by depth: the walk is depth first, so a file's
    // directory is the last one met a level above it. Each keeps the resolution its files
    // share when they share one, found with the first of them.
    let mut dirs: Vec<WalkedDir> = Vec::new();
    for entry in walker {
        match entry {
            Ok(entry) => {
                let depth = entry.depth();
                if entry.file_type().is_some_and(|t| t.is_dir()) {
                    dirs.truncate(depth);
                    if dirs.len() == depth {
                        dirs.push(WalkedDir::new(entry.path()));
                    }
                    continue;
                }
                let is_file = entry.file_type().is_some_and(|t| t.is_file());
                if !is_file {
                    continue;
                }
                let mut dir = depth
                    .checked_sub(1)
                    .and_then(|d| dirs.get_mut(d))
                    .filter(|d| d.holds(entry.path()));
                let resolved = match dir.as_ref().and_then(|d| d.shared.clone()) {
                    Some(shared) => shared,
                    None => {
                        let resolved = resolver.resolve_walked(entry.path(), false)?;
                        if let Some(dir) = dir.as_mut().filter(|_| resolved.same_in_directory) {
                            dir.shared = Some(resolved.clone());
                        }
                        resolved
                    }
                };
                let readable =
                    resolved.settings.format.is_some() || Format::from_path(entry.path()).is_some();
                if readable && !resolved.excluded {
                    walk.inputs.push(Entry {
                        input: Input::File {
                            path: entry.into_path(),
                            explicit: false,
                        },
                        settings: resolved.settings,
                    });
                }
            }
            Err(err) => {
                // The path once, then why: not ignore's `PATH: IO error for operation on PATH`.
                let message = match err.io_error() {
                    Some(e) => format!("cannot read it: {}", describe_io_error(e)),
                    None => strip_path(&err),
                };
                walk.errors.push(FileError {
                    path: error_path(&err).unwrap_or_else(|| dir.display().to_string()),
                    message,
                });
                walk.fatal_errors += 1;
            }
        }
    }
    match failed.lock().expect("lock").take() {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// A directory met while walking, with what its files share.
struct WalkedDir {
    /// Its path as the walk names it.
    path: PathBuf,
    /// The resolution of each of its files, once one of them said every file resolves alike
    /// ([`Resolved::same_in_directory`]).
    shared: Option<Resolved>,
}

impl WalkedDir {
    fn new(path: &Path) -> WalkedDir {
        WalkedDir {
            path: path.to_path_buf(),
            shared: None,
        }
    }

    /// Whether `path` names an entry of this directory (compared by components, so on every
    /// platform's separators).
    fn holds(&self, path: &Path) -> bool {
        path.parent() == Some(self.path.as_path())
    }
}

/// The message of an error that is not an I/O error (a symbolic link loop, ...) without the
/// path it carries, which the report shows before it.
fn strip_path(err: &ignore::Error) -> String {
    match err {
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => strip_path(err),
        other => other.to_string(),
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
