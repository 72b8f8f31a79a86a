//! A page's start tags and directive comments as irilint's one walk of the page reads them,
//! against html5ever's tokenizer (the oracle), on the pages of a directory named by
//! `IRILINT_HTML_ORACLE_DIR` (ignored without it: the project's tests hold no corpus), and on
//! the project's own HTML fixtures and book.
//!
//! `IRILINT_HTML_ORACLE_DIR=/path/to/html cargo test --release --test html_one_reading -- --ignored`

use std::fs;
use std::path::{Path, PathBuf};

use irilint::extract::html::tags::page_readings_differ;
use irilint::source::{Format, Source};

fn html_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            html_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "html" || e == "htm" || e == "xhtml")
        {
            out.push(path);
        }
    }
}

/// The files of `dirs` whose two readings differ, with the first difference of each.
fn differing(dirs: &[&Path]) -> (usize, Vec<String>) {
    let mut files = Vec::new();
    for dir in dirs {
        html_files(dir, &mut files);
    }
    let mut out = Vec::new();
    let mut compared = 0;
    for path in &files {
        let bytes = fs::read(path).unwrap();
        let Ok(source) = Source::decode(path.display().to_string(), Format::Html, &bytes) else {
            continue;
        };
        let text = &source.text;
        compared += 1;
        if let Some(differ) = page_readings_differ(text) {
            out.push(format!("{}: {differ}", path.display()));
        }
    }
    (compared, out)
}

#[test]
fn the_fixtures_and_the_book_are_read_as_html5ever_reads_them() {
    // docs/src, not docs/: the git-ignored docs/book is there only where the book was built.
    let (compared, differ) = differing(&[Path::new("fixtures"), Path::new("docs/src")]);
    assert!(compared >= 15, "{compared}");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
#[ignore = "reads the directory named by IRILINT_HTML_ORACLE_DIR"]
fn a_corpus_is_read_as_html5ever_reads_it() {
    let Ok(dir) = std::env::var("IRILINT_HTML_ORACLE_DIR") else {
        panic!("IRILINT_HTML_ORACLE_DIR names no directory");
    };
    let (compared, differ) = differing(&[Path::new(&dir)]);
    eprintln!("{compared} pages compared, {} differ", differ.len());
    assert!(compared > 0);
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
