//! `--fix` and `--diff` of a file whose bytes are not its text (windows-1252 by its `<meta>`,
//! UTF-8 with a BOM, UTF-8 with undecodable bytes) stay within the memory bound (docs/src/limits.md: twice
//! the largest file and 50 MB): measured as the peak resident memory of the command at two
//! sizes of a document with an IRI to fix every 100 lines, each byte more of the document must
//! cost less than two at the peak, and the larger must be within the bound; the files written
//! are exactly the bytes read with the fixes made.
//!
//! Before (debug build, 4 and 16 MiB, bytes of peak RSS per byte of the document): the bytes
//! as read were held beside the text while the file was checked and fixed, and `--diff` held
//! the text as read and the fixed one together: windows-1252 `--fix` 3.58 and `--diff` 5.49, a
//! BOM 2.62 and 4.82, undecodable bytes 3.55 and 5.36 (now 1.56 to 1.63 each).

mod common;

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;

use common::rss;

/// The two sizes, in MiB.
const SIZES: [usize; 2] = [4, 16];

/// How the document's bytes differ from its text.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// HTML declared windows-1252, with `é` as the byte 0xE9 on every prose line.
    Windows1252,
    /// Plain text, UTF-8 after a BOM.
    Bom,
    /// Plain text, UTF-8 with a byte 0xFF (undecodable) every tenth line.
    Undecodable,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Windows1252 => "windows-1252",
            Kind::Bom => "BOM",
            Kind::Undecodable => "undecodable bytes",
        }
    }

    fn file(self, stem: &str) -> String {
        match self {
            Kind::Windows1252 => format!("{stem}.html"),
            _ => format!("{stem}.txt"),
        }
    }

    /// The document's first bytes.
    fn head(self) -> &'static [u8] {
        match self {
            Kind::Windows1252 => b"<!doctype html><meta charset=\"windows-1252\">\n",
            Kind::Bom => b"\xEF\xBB\xBF",
            Kind::Undecodable => b"",
        }
    }

    /// Line `n`, as read and as fixed (`%7e` made `~`).
    fn line(self, n: usize) -> (Vec<u8>, Vec<u8>) {
        if n.is_multiple_of(100) {
            let iri = format!("http://example.org/{n}/a%7ea%7ea%7ea%7e");
            let line = match self {
                Kind::Windows1252 => format!("<p><a href=\"{iri}\">see</a></p>\n"),
                _ => format!("see {iri} here\n"),
            };
            let fixed = line.replace("%7e", "~");
            return (line.into_bytes(), fixed.into_bytes());
        }
        let line: Vec<u8> = match self {
            Kind::Windows1252 => {
                b"<p>Plain prose about nothing in particular, caf\xE9 and the like.</p>\n".to_vec()
            }
            Kind::Undecodable if n % 10 == 5 => {
                b"Plain prose about nothing in particular, with a bad byte \xFF here.\n".to_vec()
            }
            _ => b"Plain prose about nothing in particular, long enough to be a line.\n".to_vec(),
        };
        (line.clone(), line)
    }
}

/// Writes about `mib` MiB of a `kind` document to `path` and the same fixed to `fixed`, line by
/// line (this process never holds the document: a child starts from its parent's peak).
/// Returns its size and its number of IRIs.
fn write_document(kind: Kind, path: &Path, fixed: &Path, mib: usize) -> (usize, usize) {
    let mut out = BufWriter::new(File::create(path).unwrap());
    let mut expected = BufWriter::new(File::create(fixed).unwrap());
    out.write_all(kind.head()).unwrap();
    expected.write_all(kind.head()).unwrap();
    let (mut size, mut iris, mut n) = (kind.head().len(), 0, 0);
    while size < mib << 20 {
        let (line, fixed) = kind.line(n);
        out.write_all(&line).unwrap();
        expected.write_all(&fixed).unwrap();
        size += line.len();
        iris += usize::from(n.is_multiple_of(100));
        n += 1;
    }
    out.flush().unwrap();
    expected.flush().unwrap();
    (size, iris)
}

/// True when the files hold the same bytes, compared a chunk at a time.
fn same_bytes(a: &Path, b: &Path) -> bool {
    let (mut a, mut b) = (
        BufReader::new(File::open(a).unwrap()),
        BufReader::new(File::open(b).unwrap()),
    );
    let (mut x, mut y) = (vec![0; 1 << 16], vec![0; 1 << 16]);
    loop {
        let n = a.read(&mut x).unwrap();
        if n == 0 {
            return b.read(&mut y).unwrap() == 0;
        }
        if b.read_exact(&mut y[..n]).is_err() || x[..n] != y[..n] {
            return false;
        }
    }
}

/// `--fix` of a `kind` file at each size: the file written is the one expected, byte for byte.
fn fixing(kind: Kind, dir: &Path) -> Option<Vec<(usize, u64)>> {
    let mut runs = Vec::new();
    for mib in SIZES {
        let name = kind.file(&format!("fix{mib}"));
        let expected = dir.join(format!("expected{mib}"));
        let (size, _) = write_document(kind, &dir.join(&name), &expected, mib);
        let ran = rss::run(rss::fixing_irilint(dir, &[]).args(["--fix", &name]))?;
        assert_eq!(ran.code, Some(0), "--fix {name} ({})", kind.name());
        assert!(
            same_bytes(&dir.join(&name), &expected),
            "--fix {name} ({}): not the bytes read with the fixes made",
            kind.name()
        );
        std::fs::remove_file(dir.join(&name)).unwrap();
        std::fs::remove_file(&expected).unwrap();
        runs.push((size, ran.peak));
    }
    Some(runs)
}

/// `--diff` of a `kind` file at each size: one hunk line out and one in per IRI, the second the
/// first fixed; nothing written.
fn diffing(kind: Kind, dir: &Path) -> Vec<(usize, u64)> {
    let mut runs = Vec::new();
    for mib in SIZES {
        let name = kind.file(&format!("diff{mib}"));
        let expected = dir.join(format!("expected{mib}"));
        let (size, iris) = write_document(kind, &dir.join(&name), &expected, mib);
        let patch = dir.join(format!("diff{mib}.patch"));
        let peak = rss::diffing(dir, &name, &patch);
        let mut removed = Vec::new();
        let mut added = 0;
        let mut fixed = true;
        for line in BufReader::new(File::open(&patch).unwrap()).split(b'\n') {
            let line = line.unwrap();
            if line.starts_with(b"-") && !line.starts_with(b"---") {
                removed.push(String::from_utf8_lossy(&line[1..]).replace("%7e", "~"));
            } else if line.starts_with(b"+") && !line.starts_with(b"+++") {
                fixed &= removed.get(added).map(String::as_bytes) == Some(&line[1..]);
                added += 1;
            }
        }
        assert_eq!(
            (removed.len(), added),
            (iris, iris),
            "--diff {name} ({})",
            kind.name()
        );
        assert!(
            fixed,
            "--diff {name} ({}): each line in is the line out fixed",
            kind.name()
        );
        for f in [dir.join(&name), expected, patch] {
            std::fs::remove_file(f).unwrap();
        }
        runs.push((size, peak));
    }
    runs
}

#[test]
fn fix_and_diff_of_bytes_that_are_not_the_text_stay_within_twice_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut beyond = Vec::new();
    for kind in [Kind::Windows1252, Kind::Bom, Kind::Undecodable] {
        let Some(fixed) = fixing(kind, dir.path()) else {
            eprintln!("skipped: no wait4 on this system");
            return;
        };
        beyond.extend(rss::beyond_bound(
            &format!("--fix, {}", kind.name()),
            &fixed,
        ));
        let diffed = diffing(kind, dir.path());
        beyond.extend(rss::beyond_bound(
            &format!("--diff, {}", kind.name()),
            &diffed,
        ));
    }
    // No temporary file is left next to the files.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    assert!(beyond.is_empty(), "{beyond:#?}");
}
