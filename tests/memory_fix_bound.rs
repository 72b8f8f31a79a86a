//! `--fix`, `--diff` and `--fix` of standard input with other inputs stay within the memory
//! bound (docs/src/limits.md: twice the largest file and 50 MB), measured as the peak resident
//! memory of the command at two sizes of a document full of fixable IRIs: each byte more of the
//! document costs less than two at the peak, and the larger one is within the bound.
//!
//! Before: a pass held the text it fixed and the fixed one together, the file as read was held
//! until the end (to be compared with the file on disk, or diffed), and standard input's fixed
//! document (and every other file's outcome) waited in memory for the end of the run: about 3.5
//! bytes per byte (release build, 8 and 32 MB: `--fix` 30 and 116 MB, `--diff` 32 and 116 MB,
//! standard input 37 and 116 MB, over the bound of 114 MB).

mod common;

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use common::rss;

/// The two sizes, in MiB: large enough that the document, not the program, is most of the
/// peak, and quick in a debug build.
const SIZES: [usize; 2] = [4, 16];

/// Writes about `mib` MiB of prose with an IRI of four `%7e` every 100 lines to `path`, line
/// by line: this process never holds the document, since a child starts from its parent's peak
/// (`exec` keeps the larger of the old and the new memory's high-water marks), and the peak
/// measured must be the command's own. Returns its size.
fn write_document(path: &Path, mib: usize) -> usize {
    let prose = "Plain prose about nothing in particular, long enough to be a line of text.\n";
    let mut out = BufWriter::new(File::create(path).unwrap());
    let (mut size, mut iris, mut line) = (0, 0, 0);
    while size < mib << 20 {
        let text = if line % 100 == 0 {
            iris += 1;
            format!("see http://example.org/{iris}/a%7ea%7ea%7ea%7e here\n")
        } else {
            prose.to_string()
        };
        out.write_all(text.as_bytes()).unwrap();
        size += text.len();
        line += 1;
    }
    out.flush().unwrap();
    size
}

/// The lines of the document at `path`, fixed as the test's fixes fix it.
fn fixed_lines(path: &Path) -> impl Iterator<Item = String> {
    BufReader::new(File::open(path).unwrap())
        .lines()
        .map(|l| l.unwrap().replace("%7e", "~"))
}

/// True when the file at `path` holds the document at `original` fixed, compared line by line.
fn holds_fixed(path: &Path, original: &Path) -> bool {
    let read = BufReader::new(File::open(path).unwrap())
        .lines()
        .map(Result::unwrap);
    read.eq(fixed_lines(original))
        && std::fs::metadata(path).unwrap().len() < std::fs::metadata(original).unwrap().len()
}

/// `--fix` of a file: each pass written into the temporary file that replaces it, the text it
/// was made from let go before the fixed text is read back and checked.
fn fixing_a_file(dir: &Path) -> Option<Vec<(usize, u64)>> {
    let mut runs = Vec::new();
    for mib in SIZES {
        let name = format!("doc{mib}.txt");
        let size = write_document(&dir.join(&name), mib);
        let original = dir.join(format!("original{mib}.txt"));
        std::fs::copy(dir.join(&name), &original).unwrap();
        let ran = rss::run(rss::fixing_irilint(dir, &[]).args(["--fix", &name]))?;
        assert_eq!(ran.code, Some(0), "--fix {name}");
        assert!(
            holds_fixed(&dir.join(&name), &original),
            "--fix {name}: not the fixed document"
        );
        std::fs::remove_file(&original).unwrap();
        runs.push((size, ran.peak));
    }
    // No temporary file is left next to the files.
    assert_eq!(std::fs::read_dir(dir).unwrap().count(), SIZES.len());
    Some(runs)
}

/// `--diff` of a file: one text held at a time, the fixed one's lines read back from its
/// temporary file as the hunks need them.
fn diffing_a_file(dir: &Path) -> Vec<(usize, u64)> {
    let mut runs = Vec::new();
    for mib in SIZES {
        let name = format!("diffed{mib}.txt");
        let size = write_document(&dir.join(&name), mib);
        let patch = dir.join(format!("diffed{mib}.patch"));
        let peak = rss::diffing(dir, &name, &patch);
        // Each hunk takes a line with `%7e` out and puts it in fixed, in document order.
        let diff: Vec<String> = BufReader::new(File::open(&patch).unwrap())
            .lines()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            diff[..3],
            [
                format!("--- a/{name}"),
                format!("+++ b/{name}"),
                "@@ -1,4 +1,4 @@".to_string()
            ]
        );
        let removed: Vec<&String> = diff.iter().filter(|l| l.starts_with("-see")).collect();
        let added: Vec<&String> = diff.iter().filter(|l| l.starts_with("+see")).collect();
        let expected: Vec<String> = fixed_lines(&dir.join(&name))
            .filter(|l| l.starts_with("see"))
            .collect();
        assert_eq!(removed.len(), expected.len(), "--diff {name}");
        assert!(
            added
                .iter()
                .map(|l| &l[1..])
                .eq(expected.iter().map(String::as_str)),
            "--diff {name}"
        );
        assert!(
            removed
                .iter()
                .zip(&added)
                .all(|(r, a)| r[1..].replace("%7e", "~") == a[1..])
        );
        drop(diff);
        std::fs::remove_file(&patch).unwrap();
        std::fs::remove_file(dir.join(&name)).unwrap();
        runs.push((size, peak));
    }
    runs
}

/// `--fix` of standard input with other files: each file reported as it is fixed, standard
/// input's fixed document waiting for its turn in a temporary file.
fn fixing_standard_input_with_other_files(dir: &Path) -> Vec<(usize, u64)> {
    let mut runs = Vec::new();
    for mib in SIZES {
        let input = dir.join(format!("stdin{mib}.txt"));
        let size = write_document(&input, mib);
        for k in 0..3 {
            std::fs::write(
                dir.join(format!("other{k}.txt")),
                "see http://example.org/a%7e\n",
            )
            .unwrap();
        }
        let out = dir.join("fixed.txt");
        let ran = rss::run(
            rss::fixing_irilint(dir, &[])
                .args(["--fix", "other0.txt", "-", "other1.txt", "other2.txt"])
                .stdin(File::open(&input).unwrap())
                .stdout(File::create(&out).unwrap()),
        )
        .unwrap();
        assert_eq!(ran.code, Some(0), "--fix - with other files");
        assert!(
            holds_fixed(&out, &input),
            "standard input's fixed document on standard output"
        );
        for k in 0..3 {
            assert_eq!(
                std::fs::read_to_string(dir.join(format!("other{k}.txt"))).unwrap(),
                "see http://example.org/a~\n"
            );
        }
        std::fs::remove_file(&input).unwrap();
        runs.push((size, ran.peak));
    }
    runs
}

/// One test, its commands run one after the other: a command's peak is its own.
#[test]
fn fix_diff_and_standard_input_stay_within_twice_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let Some(fixed) = fixing_a_file(dir.path()) else {
        eprintln!("skipped: no wait4 on this system");
        return;
    };
    let diffed = diffing_a_file(dir.path());
    let piped = fixing_standard_input_with_other_files(dir.path());
    let beyond: Vec<String> = [
        rss::beyond_bound("--fix", &fixed),
        rss::beyond_bound("--diff", &diffed),
        rss::beyond_bound("--fix of standard input with other files", &piped),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert!(beyond.is_empty(), "{beyond:#?}");
}
