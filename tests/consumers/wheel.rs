//! irilint's wheel, built once for every test that installs it (`tests/wheel.rs`,
//! `tests/pre_commit_hook.rs`): `maturin sdist` of `python/pyproject.toml`, then `maturin build`
//! in that sdist unpacked, so that the wheel the tests install is the one a `pip install` of the
//! sdist would build (the sdist is shown to build from source on the way). One release build:
//! its cargo target directory is kept in `CARGO_TARGET_TMPDIR`, and the unpacked sdist is
//! updated file by file (a file is rewritten only when its content changed), so that cargo
//! rebuilds only what changed. A lock on that directory keeps two test processes from building
//! at once; the first in a process builds, the others get its result.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// What the build made: the sdist and the wheel built from it.
#[derive(Debug, Clone)]
pub struct Built {
    pub sdist: PathBuf,
    pub wheel: PathBuf,
}

/// maturin (PyPI), from the project's virtual environment or `PATH`.
pub fn maturin() -> Option<PathBuf> {
    super::python_tool("maturin")
}

/// The sdist and wheel, built at most once per test process; `None` (after `require`'s message,
/// or its panic in CI) when maturin is not installed.
pub fn built() -> Option<Built> {
    static BUILT: OnceLock<Option<Built>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let maturin = super::require(maturin(), "maturin")?;
            Some(build(&maturin))
        })
        .clone()
}

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run(what: &str, command: &mut Command) {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The only file of `dir` whose name ends with `suffix`.
fn only(dir: &Path, suffix: &str) -> PathBuf {
    let found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    assert_eq!(found.len(), 1, "{suffix} in {}: {found:?}", dir.display());
    found.into_iter().next().unwrap()
}

fn build(maturin: &Path) -> Built {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("wheel");
    std::fs::create_dir_all(&base).unwrap();
    let _lock = Lock::take(&base.join("lock"));
    let sdist_dir = base.join("sdist");
    let dist = base.join("dist");
    for dir in [&sdist_dir, &dist] {
        let _ = std::fs::remove_dir_all(dir);
    }
    run(
        "maturin sdist",
        Command::new(maturin)
            .args(["sdist", "--out"])
            .arg(&sdist_dir)
            .current_dir(repo_root().join("python")),
    );
    let sdist = only(&sdist_dir, ".tar.gz");

    // Unpacked into a scratch directory, then copied over the kept tree where it differs.
    let scratch = tempfile::tempdir_in(&base).unwrap();
    run(
        "tar",
        Command::new("tar")
            .arg("xzf")
            .arg(&sdist)
            .arg("-C")
            .arg(scratch.path()),
    );
    let unpacked = only(scratch.path(), "");
    let tree = base.join("tree");
    sync(&unpacked, &tree);

    run(
        "maturin build (from the sdist)",
        Command::new(maturin)
            .args(["build", "--locked", "--out"])
            .arg(&dist)
            .current_dir(&tree)
            .env("CARGO_TARGET_DIR", base.join("target")),
    );
    Built {
        sdist,
        wheel: only(&dist, ".whl"),
    }
}

/// Makes `to` hold exactly the files of `from`, rewriting only those whose content differs (so
/// that their modification times tell cargo what changed) and removing those `from` lacks.
fn sync(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    let mut wanted = std::collections::HashSet::new();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        wanted.insert(name.clone());
        let (src, dst) = (entry.path(), to.join(&name));
        if entry.file_type().unwrap().is_dir() {
            if dst.is_file() {
                std::fs::remove_file(&dst).unwrap();
            }
            sync(&src, &dst);
        } else {
            let new = std::fs::read(&src).unwrap();
            if dst.is_dir() {
                std::fs::remove_dir_all(&dst).unwrap();
            }
            if std::fs::read(&dst).ok().as_deref() != Some(&new[..]) {
                std::fs::write(&dst, &new).unwrap();
            }
        }
    }
    for entry in std::fs::read_dir(to).unwrap() {
        let entry = entry.unwrap();
        // The build's own output directory, if maturin or cargo left one, is not the sdist's.
        if !wanted.contains(&entry.file_name()) {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                std::fs::remove_dir_all(path).unwrap();
            } else {
                std::fs::remove_file(path).unwrap();
            }
        }
    }
}

/// An exclusive `flock` on a file, released when dropped (when the file is closed).
struct Lock(std::fs::File);

impl Lock {
    fn take(path: &Path) -> Lock {
        use std::os::fd::AsRawFd;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .unwrap();
        // SAFETY: flock on a descriptor this function owns; it blocks until the lock is free.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
        assert_eq!(rc, 0, "flock {}", path.display());
        let _ = writeln!(file, "{}", std::process::id());
        Lock(file)
    }
}
